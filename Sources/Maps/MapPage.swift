/// The HTML page around the SVG: no network access, a hover label that names whatever is under the
/// pointer (a region, an event, an accuracy circle), read from the elements' own `<title>`; a merged event
/// marker's long list is cut to its first lines there.
enum MapPage {
    static func writeHead(title: String, to out: inout SVGText) {
        out.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>")
        out.escaped(title)
        out.raw("""
        </title>
        <style>
        body { margin: 0; font: 13px sans-serif; background: #fff; }
        svg { display: block; }
        #hover { position: fixed; pointer-events: none; background: #222; color: #fff; padding: 3px 6px;
                 border-radius: 3px; display: none; white-space: pre; }
        #map path:hover, #map g.event:hover circle { stroke-width: 3; }
        </style></head><body>

        """)
    }

    static func writeTail(to out: inout SVGText) {
        out.raw("""
        <div id="hover"></div>
        <script>
        (function () {
          var hover = document.getElementById("hover");
          var map = document.getElementById("map");
          map.addEventListener("mousemove", function (e) {
            var label = null;
            for (var n = e.target; n && n !== map; n = n.parentNode) {
              var t = n.querySelector ? n.querySelector(":scope > title") : null;
              if (t) { label = t.textContent; break; }
            }
            if (!label) { hover.style.display = "none"; return; }
            var lines = label.split("\\n");
            if (lines.length > \(EventLayer.hoverLines + 1)) {
              lines = lines.slice(0, \(EventLayer.hoverLines + 1)).concat(["\\u2026 and " + (lines.length - \(EventLayer.hoverLines + 1)) + " more"]);
            }
            hover.textContent = lines.join("\\n");
            hover.style.left = (e.clientX + 12) + "px";
            hover.style.top = (e.clientY + 12) + "px";
            hover.style.display = "block";
          });
          map.addEventListener("mouseleave", function () { hover.style.display = "none"; });
        })();
        </script>
        </body></html>

        """)
    }
}

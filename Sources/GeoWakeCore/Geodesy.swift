#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances, bearings and destinations on the WGS84 ellipsoid.
public enum Geodesy {
    public static let semiMajorAxis = 6_378_137.0
    public static let flattening = 1 / 298.257223563
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    public static let eccentricitySquared = flattening * (2 - flattening)
    public static let meanRadius = 6_371_008.8

    static let radian = Double.pi / 180

    /// Geodesic distance in metres (Vincenty's inverse formula, accurate to about 0.5 mm).
    /// For nearly antipodal points, where Vincenty does not converge, falls back to the sphere
    /// (within 0.5 %): such distances never decide a geofence.
    public static func distance(_ p: Coordinate, _ q: Coordinate) -> Double {
        inverse(p, q)?.distance ?? sphericalDistance(p, q)
    }

    /// Initial bearing from `p` towards `q`, degrees true in [0, 360).
    public static func bearing(from p: Coordinate, to q: Coordinate) -> Double {
        guard let result = inverse(p, q) else {
            return normalizedDegrees(atan2(sin((q.longitude - p.longitude) * radian) * cos(q.latitude * radian),
                                           cos(p.latitude * radian) * sin(q.latitude * radian)
                                               - sin(p.latitude * radian) * cos(q.latitude * radian)
                                               * cos((q.longitude - p.longitude) * radian)) / radian)
        }
        return result.initialBearing
    }

    /// Great-circle distance on the mean-radius sphere (haversine).
    public static func sphericalDistance(_ p: Coordinate, _ q: Coordinate) -> Double {
        let dLat = (q.latitude - p.latitude) * radian
        let dLon = (q.longitude - p.longitude) * radian
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(p.latitude * radian) * cos(q.latitude * radian) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * meanRadius * asin(min(1, h.squareRoot()))
    }

    /// Flat-earth distance with the ellipsoid's radii of curvature at the mean latitude: cheap, and
    /// within a few parts per million of the geodesic for points a few kilometres apart away from the poles.
    public static func localDistance(_ p: Coordinate, _ q: Coordinate) -> Double {
        let midLat = (p.latitude + q.latitude) * 0.5 * radian
        let s = sin(midLat)
        let w = 1 - eccentricitySquared * s * s
        let meridional = semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot())
        let primeVertical = semiMajorAxis / w.squareRoot()
        let north = (q.latitude - p.latitude) * radian * meridional
        let east = normalizedLongitudeDelta(q.longitude - p.longitude) * radian * primeVertical * cos(midLat)
        return (north * north + east * east).squareRoot()
    }

    /// Metres per degree of latitude and of longitude at `latitude`.
    public static func metresPerDegree(atLatitude latitude: Double) -> (latitude: Double, longitude: Double) {
        let phi = latitude * radian
        let s = sin(phi)
        let w = 1 - eccentricitySquared * s * s
        let meridional = semiMajorAxis * (1 - eccentricitySquared) / (w * w.squareRoot())
        let primeVertical = semiMajorAxis / w.squareRoot()
        return (meridional * radian, primeVertical * cos(phi) * radian)
    }

    /// The point `distance` metres from `start` along the geodesic with initial `bearing` (Vincenty's direct formula).
    public static func destination(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        let a = semiMajorAxis, b = semiMinorAxis, f = flattening
        let alpha1 = bearing * radian
        let sinAlpha1 = sin(alpha1), cosAlpha1 = cos(alpha1)
        let tanU1 = (1 - f) * tan(start.latitude * radian)
        let cosU1 = 1 / (1 + tanU1 * tanU1).squareRoot(), sinU1 = tanU1 * cosU1
        let sigma1 = atan2(tanU1, cosAlpha1)
        let sinAlpha = cosU1 * sinAlpha1
        let cosSqAlpha = 1 - sinAlpha * sinAlpha
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        var sigma = distance / (b * bigA)
        var cos2SigmaM = 0.0, sinSigma = 0.0, cosSigma = 0.0
        for _ in 0..<200 {
            cos2SigmaM = cos(2 * sigma1 + sigma)
            sinSigma = sin(sigma)
            cosSigma = cos(sigma)
            let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
            let previous = sigma
            sigma = distance / (b * bigA) + deltaSigma
            if abs(sigma - previous) < 1e-12 { break }
        }
        cos2SigmaM = cos(2 * sigma1 + sigma)
        sinSigma = sin(sigma)
        cosSigma = cos(sigma)
        let x = sinU1 * sinSigma - cosU1 * cosSigma * cosAlpha1
        let lat = atan2(sinU1 * cosSigma + cosU1 * sinSigma * cosAlpha1, (1 - f) * (sinAlpha * sinAlpha + x * x).squareRoot())
        let lambda = atan2(sinSigma * sinAlpha1, cosU1 * cosSigma - sinU1 * sinSigma * cosAlpha1)
        let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
        let l = lambda - (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        let lon = normalizedLongitudeDelta(start.longitude + l / radian)
        return Coordinate(latitude: lat / radian, longitude: lon)
    }

    /// Vincenty's inverse formula; nil where it does not converge (nearly antipodal points).
    public static func inverse(_ p: Coordinate, _ q: Coordinate) -> (distance: Double, initialBearing: Double)? {
        let a = semiMajorAxis, b = semiMinorAxis, f = flattening
        let l = normalizedLongitudeDelta(q.longitude - p.longitude) * radian
        let u1 = atan((1 - f) * tan(p.latitude * radian))
        let u2 = atan((1 - f) * tan(q.latitude * radian))
        let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
        var lambda = l
        var sinLambda = 0.0, cosLambda = 0.0, sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0
        var cosSqAlpha = 0.0, cos2SigmaM = 0.0
        var converged = false
        for _ in 0..<200 {
            sinLambda = sin(lambda)
            cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return (0, 0) }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSqAlpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cosSqAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSqAlpha : 0
            let c = f / 16 * cosSqAlpha * (4 + f * (4 - 3 * cosSqAlpha))
            let previous = lambda
            lambda = l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 { converged = true; break }
        }
        guard converged else { return nil }
        let uSq = cosSqAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSq / 16384 * (4096 + uSq * (-768 + uSq * (320 - 175 * uSq)))
        let bigB = uSq / 1024 * (256 + uSq * (-128 + uSq * (74 - 47 * uSq)))
        let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let s = b * bigA * (sigma - deltaSigma)
        let alpha1 = atan2(cosU2 * sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * cosLambda)
        return (s, normalizedDegrees(alpha1 / radian))
    }

    /// A longitude difference folded into [-180, 180].
    public static func normalizedLongitudeDelta(_ degrees: Double) -> Double {
        var d = degrees.truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    /// An angle folded into [0, 360).
    public static func normalizedDegrees(_ degrees: Double) -> Double {
        let d = degrees.truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
    }
}

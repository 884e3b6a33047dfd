import GeoWakeCore

/// The sentence handlers. Each reads all its fields first and touches no state when any of them is
/// malformed (it returns false and the sentence is counted as dropped); then it moves to the epoch of
/// its time and merges what it carries.
extension NMEASentenceParser {
    static let metresPerSecondPerKnot = 1852.0 / 3600.0
    static let altitudeRange = -1_000.0...100_000.0
    /// Knots; about 1000 m/s, twice the export-control limit receivers enforce.
    static let speedRange = 0.0...2_000.0
    static let hdopRange = 0.0...1_000.0
    static let courseRange = 0.0...360.0

    static let north = UInt8(ascii: "N"), south = UInt8(ascii: "S")
    static let east = UInt8(ascii: "E"), west = UInt8(ascii: "W")

    /// Time of day, through the memo.
    private mutating func time(_ f: inout NMEAFields) -> Int32? {
        f.memoized(&timeMemo) { $0.timeOfDay() }
    }

    /// Latitude and longitude fields (four), through the memo. Nil when all are empty; one half
    /// without the other is malformed.
    private mutating func position(_ f: inout NMEAFields) -> NMEAPosition? {
        f.memoized(&positionMemo) { f in
            let latitude = f.angle(maximumDegrees: 90, positive: Self.north, negative: Self.south)
            let longitude = f.angle(maximumDegrees: 180, positive: Self.east, negative: Self.west)
            guard let latitude, let longitude else {
                if latitude != nil || longitude != nil { f.markMalformed() }
                return nil
            }
            return NMEAPosition(latitude: latitude, longitude: longitude)
        }
    }

    /// RMC's `ddmmyy` as a day number, through the memo (which a new ZDA year clears).
    private mutating func date(_ f: inout NMEAFields) -> Int? {
        let calendar = self.calendar
        return f.memoized(&dateMemo) { f in
            guard let date = f.dayMonthYear() else { return nil }
            guard let day = calendar.dayNumber(date) else {
                f.markMalformed()
                return nil
            }
            return day
        }
    }

    private mutating func setPosition(_ position: NMEAPosition) {
        epoch.latitude = position.latitude
        epoch.longitude = position.longitude
        epoch.hasPosition = true
    }

    private mutating func setCourse(_ degrees: Double) {
        epoch.course = degrees == 360 ? 0 : degrees
    }

    private mutating func setHDOP(_ hdop: Double?) {
        // 0 and 99.9x are what receivers send for "unknown".
        if let hdop, hdop > 0, hdop < 99 { epoch.hdop = hdop }
    }

    /// `$GPGGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,age,station`
    mutating func gga(_ f: inout NMEAFields, _ emit: (Fix) -> Void) -> Bool {
        let gga = NMEAGGA(timeOfDay: time(&f), position: position(&f), quality: f.integer(maximum: 9),
                          satellites: f.integer(maximum: 99), hdop: f.decimal(Self.hdopRange),
                          altitude: f.decimal(Self.altitudeRange))
        guard !f.isMalformed else { return false }
        merge(gga, emit)
        return true
    }

    /// Merges a well-formed GGA into its epoch; the common-line reader (`NMEACommonSentences`) reads its own.
    @inline(__always) mutating func merge(_ gga: NMEAGGA, _ emit: (Fix) -> Void) {
        enter(gga.timeOfDay, emit)
        guard !epoch.isClosed else { return }
        guard let quality = gga.quality, quality > 0 else {
            epoch.isVoid = true
            return
        }
        guard let position = gga.position else { return }
        setPosition(position)
        if let altitude = gga.altitude { epoch.altitudeMSL = altitude }
        if let satellites = gga.satellites { epoch.satellites = satellites }
        setHDOP(gga.hdop)
    }

    /// `$GPRMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,knots,course,ddmmyy,var,E,mode,navstatus`
    mutating func rmc(_ f: inout NMEAFields, _ emit: (Fix) -> Void) -> Bool {
        var rmc = NMEARMC(timeOfDay: time(&f), status: f.character(), position: position(&f),
                          knots: f.decimal(Self.speedRange), course: f.decimal(Self.courseRange), day: date(&f))
        f.skipOptional(2)   // magnetic variation and its direction
        rmc.faaMode = f.hasMoreFields ? f.raw().first : nil
        guard !f.isMalformed else { return false }
        merge(rmc, emit)
        return true
    }

    /// Merges a well-formed RMC into its epoch.
    @inline(__always) mutating func merge(_ rmc: NMEARMC, _ emit: (Fix) -> Void) {
        enter(rmc.timeOfDay, emit)
        guard !epoch.isClosed else { return }
        // gpsd's rule: a void RMC's date and time may be bogus (MTK, Royaltek), so it sets nothing.
        guard rmc.status == UInt8(ascii: "A") || rmc.status == UInt8(ascii: "D"), rmc.faaMode != UInt8(ascii: "N") else {
            epoch.isVoid = true
            return
        }
        if let day = rmc.day, let time = rmc.timeOfDay { calendar.setDay(day, at: time) }
        guard let position = rmc.position else { return }
        setPosition(position)
        if let knots = rmc.knots { epoch.speed = knots * Self.metresPerSecondPerKnot }
        if let course = rmc.course { setCourse(course) }
    }

    /// `$GPGLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,mode`
    mutating func gll(_ f: inout NMEAFields, _ emit: (Fix) -> Void) -> Bool {
        let position = position(&f)
        let time = time(&f)
        let status = f.character()
        let faaMode = f.hasMoreFields ? f.raw().first : nil
        guard !f.isMalformed else { return false }
        enter(time, emit)
        guard !epoch.isClosed else { return true }
        guard status == UInt8(ascii: "A"), faaMode != UInt8(ascii: "N") else {
            epoch.isVoid = true
            return true
        }
        if let position { setPosition(position) }
        return true
    }

    /// `$GNGNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,modes,nn,h.h,a.a,sep,age,station,navstatus`;
    /// one mode character per constellation (GPS, GLONASS, Galileo, BeiDou, …).
    mutating func gns(_ f: inout NMEAFields, _ emit: (Fix) -> Void) -> Bool {
        let time = time(&f)
        let position = position(&f)
        let modes = f.raw()
        let satellites = f.integer(maximum: 99)
        let hdop = f.decimal(Self.hdopRange)
        let altitude = f.decimal(Self.altitudeRange)
        f.skipOptional(3)   // geoid separation, correction age, station
        let navigationStatus = f.hasMoreFields ? f.raw().first : nil
        var anyValid = false
        for c in modes {
            guard (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c) else { return false }
            if c != UInt8(ascii: "N") { anyValid = true }
        }
        guard !f.isMalformed else { return false }
        enter(time, emit)
        guard !epoch.isClosed else { return true }
        guard anyValid else {
            epoch.isVoid = true
            return true
        }
        // Unsafe or not-valid-for-navigation: like gpsd, use nothing from it, but do not void the
        // epoch (Furuno sends `V` here beside a valid RMC and GGA).
        if navigationStatus == UInt8(ascii: "U") || navigationStatus == UInt8(ascii: "V") { return true }
        guard let position else { return true }
        setPosition(position)
        if let altitude { epoch.altitudeMSL = altitude }
        if let satellites { epoch.satellites = satellites }
        setHDOP(hdop)
        return true
    }

    /// `$GPVTG,course,T,magnetic,M,knots,N,kmh,K,mode`, or NMEA 1.5's `$GPVTG,course,magnetic,knots,kmh`.
    mutating func vtg(_ f: inout NMEAFields) -> Bool {
        let course = f.decimal(Self.courseRange)
        let second = f.raw()
        var knots: Double?
        var kmh: Double?
        var faaMode: UInt8?
        if second.count == 1 && second[0] == UInt8(ascii: "T") {
            f.skip(2)
            knots = f.decimal(Self.speedRange)
            f.skipOptional(1)
            kmh = f.hasMoreFields ? f.decimal(0...3_800) : nil
            f.skipOptional(1)
            faaMode = f.hasMoreFields ? f.raw().first : nil
        } else {
            knots = f.decimal(Self.speedRange)
            kmh = f.decimal(0...3_800)
        }
        guard !f.isMalformed else { return false }
        // Estimated (dead reckoning) or not valid: nothing to use, as gpsd.
        guard !epoch.isClosed, faaMode != UInt8(ascii: "N"), faaMode != UInt8(ascii: "E") else { return true }
        if let course { setCourse(course) }
        if let knots {
            epoch.speed = knots * Self.metresPerSecondPerKnot
        } else if let kmh {
            epoch.speed = kmh / 3.6
        }
        return true
    }

    /// `$GNGSA,A,3,prn,…` — only the fix type is used; DOPs come with GGA/GNS.
    mutating func gsa(_ f: inout NMEAFields) -> Bool {
        f.skip(1)
        let fixType = f.integer(maximum: 3)
        guard !f.isMalformed else { return false }
        if let fixType, fixType >= 2, !epoch.isClosed { epoch.gsaMode = max(epoch.gsaMode, fixType) }
        return true
    }

    /// `$GPGST,hhmmss.ss,rms,major,minor,orientation,σlat,σlon,σalt` — standard deviations in metres.
    mutating func gst(_ f: inout NMEAFields) -> Bool {
        let time = time(&f)
        f.skip(1)   // RMS of the range residuals: not a position error (u-blox sends 228650)
        let major = f.decimal(0...1e6)
        let minor = f.decimal(0...1e6)
        f.skip(1)
        let latitudeError = f.decimal(0...1e6)
        let longitudeError = f.decimal(0...1e6)
        guard !f.isMalformed else { return false }
        // GST describes the fix of its time: one that arrives with another epoch is of no use, and
        // must not split that epoch.
        guard let time, time == epoch.timeOfDay, !epoch.isClosed else { return true }
        // The 1-sigma radial error (DRMS) of the horizontal error ellipse; zero means "not known".
        var radial = Double.nan
        if let latitudeError, let longitudeError {
            radial = (latitudeError * latitudeError + longitudeError * longitudeError).squareRoot()
        } else if let major, let minor {
            radial = (major * major + minor * minor).squareRoot()
        }
        if radial > 0 { epoch.gstAccuracy = radial }
        return true
    }

    /// `$GPZDA,hhmmss.ss,dd,mm,yyyy,zh,zm`
    mutating func zda(_ f: inout NMEAFields) -> Bool {
        let time = time(&f)
        let dayOfMonth = f.integer(maximum: 31)
        let month = f.integer(maximum: 12)
        let year = f.integer(maximum: 9_999)
        guard !f.isMalformed else { return false }
        var day: Int?
        if let dayOfMonth, let month, let year {
            guard year >= 1980, let d = NMEACalendar.dayNumber(year: year, month: month, day: dayOfMonth) else { return false }
            day = d
        } else if dayOfMonth != nil || month != nil || year != nil {
            return false
        }
        // ZDA is the receiver's clock, not a fix, and may be stamped a little apart from the epoch
        // it is sent with: it sets the date but does not start an epoch.
        if let day, let year, let time {
            if year != calendar.referenceYear { dateMemo = NMEAFieldMemo() }
            calendar.setDay(day, at: time, zdaYear: year)
        }
        return true
    }
}

/// What a GGA sentence carries: read from its fields, then merged into the epoch.
struct NMEAGGA {
    var timeOfDay: Int32?
    var position: NMEAPosition?
    var quality: Int?
    var satellites: Int?
    var hdop: Double?
    var altitude: Double?
}

/// What an RMC sentence carries.
struct NMEARMC {
    var timeOfDay: Int32?
    var status: UInt8?
    var position: NMEAPosition?
    var knots: Double?
    var course: Double?
    /// Days since 1970.
    var day: Int?
    var faaMode: UInt8?
}

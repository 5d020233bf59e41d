/// A Prometheus text exposition (format 0.0.4): per family one `# HELP` and one `# TYPE` line, then its samples.
public struct PrometheusText: Sendable {
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    public enum Kind: String, Sendable {
        case counter, gauge, histogram, summary
    }

    public private(set) var text = ""

    public init() {}

    public mutating func family(_ name: String, _ kind: Kind, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(kind.rawValue)\n"
    }

    /// A family of one unlabelled sample.
    public mutating func metric(_ name: String, _ kind: Kind, value: Double, help: String) {
        family(name, kind, help: help)
        sample(name, value)
    }

    public mutating func sample(_ name: String, _ value: Double, labels: [(String, String)] = []) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",") + "}"
        }
        text += " " + Self.format(value) + "\n"
    }

    /// Integers without a fraction; the spec's spellings for the infinities and NaN.
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func escapeLabel(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    static func escapeHelp(_ value: String) -> String {
        value.replacingBackslashesAndNewlines()
    }
}

private extension String {
    func replacingBackslashesAndNewlines() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}

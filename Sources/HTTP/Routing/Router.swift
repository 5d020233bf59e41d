/// The routes of an application, frozen into a trie at boot. Immutable, so lookups take no lock.
public final class Router: Sendable {
    public enum Match {
        case found(Route, Parameters)
        /// The path exists, but not for this method; `allowed` is for the `Allow` header.
        case methodNotAllowed(allowed: [HTTPMethod])
        case notFound
    }

    private let root: Node
    public let routes: [Route]
    /// Each place where two routes name the same parameter position differently, e.g.
    /// `GET /a/:slug/x names :id as :slug`. Empty for a valid route table; `Application.start()` refuses any other,
    /// since one name would silently win and the other route's handler would read a parameter that is never set.
    public let conflicts: [String]

    /// Builds the trie. Later registrations of the same method and pattern replace earlier ones.
    public init(routes: [Route]) {
        let builder = NodeBuilder()
        for route in routes { builder.insert(route, at: route.path[...]) }
        self.conflicts = builder.conflicts
        self.root = builder.freeze()
        self.routes = routes
    }

    public func match(method: HTTPMethod, segments: [String]) -> Match {
        var parameters = Parameters()
        guard let node = root.find(segments[...], parameters: &parameters) else { return .notFound }
        let lookupMethod: HTTPMethod = method == .HEAD && node.routes[.HEAD] == nil ? .GET : method
        if let route = node.routes[lookupMethod] {
            return .found(route, parameters)
        }
        return .methodNotAllowed(allowed: node.allowedMethods)
    }
}

extension Router {
    /// One trie node: constant children by exact segment, then one parameter child, `*`, and `**`.
    final class Node: Sendable {
        let constants: [String: Node]
        let parameter: (name: String, node: Node)?
        let anything: Node?
        let catchall: Node?
        let routes: [HTTPMethod: Route]
        let allowedMethods: [HTTPMethod]

        init(constants: [String: Node], parameter: (String, Node)?, anything: Node?, catchall: Node?, routes: [HTTPMethod: Route]) {
            self.constants = constants
            self.parameter = parameter.map { (name: $0.0, node: $0.1) }
            self.anything = anything
            self.catchall = catchall
            self.routes = routes
            var allowed = Set(routes.keys)
            if allowed.contains(.GET) { allowed.insert(.HEAD) }
            allowed.insert(.OPTIONS)
            self.allowedMethods = allowed.sorted { $0.rawValue < $1.rawValue }
        }

        /// Constants win over parameters, parameters over `*`, and `**` is the last resort; a failed branch backtracks.
        func find(_ segments: ArraySlice<String>, parameters: inout Parameters) -> Node? {
            guard let segment = segments.first else {
                if !routes.isEmpty { return self }
                if let catchall, !catchall.routes.isEmpty { parameters.setCatchall([]); return catchall }
                return nil
            }
            let rest = segments.dropFirst()
            if let child = constants[segment], let found = child.find(rest, parameters: &parameters) {
                return found
            }
            if let (name, child) = parameter {
                var attempt = parameters
                attempt.set(name, to: segment)
                if let found = child.find(rest, parameters: &attempt) {
                    parameters = attempt
                    return found
                }
            }
            if let anything, let found = anything.find(rest, parameters: &parameters) {
                return found
            }
            if let catchall, !catchall.routes.isEmpty {
                parameters.setCatchall(Array(segments))
                return catchall
            }
            return nil
        }
    }

    /// The mutable shape used only while building.
    final class NodeBuilder {
        var constants: [String: NodeBuilder] = [:]
        var parameter: (String, NodeBuilder)?
        var anything: NodeBuilder?
        var catchall: NodeBuilder?
        var routes: [HTTPMethod: Route] = [:]
        /// Shared by the whole tree: the root's list is the one read.
        var conflicts: [String] = []

        func insert(_ route: Route, at path: ArraySlice<PathComponent>) {
            insert(route, at: path, root: self)
        }

        private func insert(_ route: Route, at path: ArraySlice<PathComponent>, root: NodeBuilder) {
            guard let component = path.first else {
                routes[route.method] = route
                return
            }
            let next: NodeBuilder
            switch component {
            case .constant(let value):
                next = constants[value] ?? NodeBuilder()
                constants[value] = next
            case .parameter(let name):
                next = parameter?.1 ?? NodeBuilder()
                if let existing = parameter?.0, existing != name {
                    root.conflicts.append("\(route.method.rawValue) /\(route.path.map(\.description).joined(separator: "/")) names :\(existing) as :\(name)")
                }
                parameter = (parameter?.0 ?? name, next)
            case .anything:
                next = anything ?? NodeBuilder()
                anything = next
            case .catchall:
                next = catchall ?? NodeBuilder()
                catchall = next
                next.routes[route.method] = route
                return
            }
            next.insert(route, at: path.dropFirst(), root: root)
        }

        func freeze() -> Node {
            Node(
                constants: constants.mapValues { $0.freeze() },
                parameter: parameter.map { ($0.0, $0.1.freeze()) },
                anything: anything?.freeze(),
                catchall: catchall?.freeze(),
                routes: routes
            )
        }
    }
}

// swift-tools-version:6.0
import PackageDescription

// Linux only: the server is built on epoll and Glibc.
let package = Package(
    name: "Petty",
    products: [
        .executable(name: "Run", targets: ["Run"]),
    ],
    targets: [
        // C shim: <sys/epoll.h> and <sys/eventfd.h> are not in the Glibc module.
        .target(name: "CEpoll"),
        // The HTTP framework: knows nothing about fuel.
        .target(name: "HTTP", dependencies: ["CEpoll"]),
        // The pure fuel domain: no I/O.
        .target(name: "Fuel"),
        // Provider clients, pollers and wire-format adapters.
        .target(name: "Providers", dependencies: ["Fuel"], resources: [.copy("SampleData")]),
        // etcd v3 over its JSON gateway, and the fleet's election and fencing: knows nothing about fuel.
        .target(name: "Coordination"),
        // Wiring, configuration, controllers and the wire contract (DTOs).
        .target(name: "App", dependencies: ["HTTP", "Fuel", "Providers", "Coordination"]),
        .executableTarget(name: "Run", dependencies: ["App"]),
        .executableTarget(name: "PettyBench", dependencies: ["App", "Fuel", "Providers"], path: "Benchmarks/Sources/PettyBench"),

        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "FuelTests", dependencies: ["Fuel"]),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "Fuel", "HTTP"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CoordinationTests", dependencies: ["Coordination", "HTTP"]),
        .testTarget(name: "AppTests", dependencies: ["App", "HTTP", "Fuel", "Providers"]),
    ],
    swiftLanguageModes: [.v6]
)

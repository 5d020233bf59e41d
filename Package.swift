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
        // The system zlib, for gzip responses (zlib1g-dev, a documented dependency of the Swift toolchain on Linux).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The one monotonic clock every module measures elapsed time with.
        .target(name: "Clocks"),
        // The HTTP framework: knows nothing about fuel.
        .target(name: "HTTP", dependencies: ["CEpoll", "CZlib", "Clocks"]),
        // The pure fuel domain: no I/O.
        .target(name: "Fuel"),
        // Provider clients, pollers and wire-format adapters.
        .target(name: "Providers", dependencies: ["Fuel", "Clocks"], resources: [.copy("SampleData")]),
        // SHA-256, HMAC-SHA-256, PBKDF2 and the byte helpers they need (hex, base64, constant-time compare): pure Swift.
        // Optimised even in debug builds: unoptimised, a SCRAM login's 4,096 PBKDF2 rounds take about half a second.
        .target(name: "Crypto", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // PostgreSQL's frontend/backend protocol v3 on raw sockets (TCP and Unix-domain): knows nothing about fuel.
        .target(name: "Postgres", dependencies: ["Crypto", "Clocks"]),
        // Price alerts in PostgreSQL: the schema and its migrations, devices, alerts, the fenced outbox. Between the
        // pure rules (Fuel) and the wiring (App), so neither the wire client nor App learns the tables.
        .target(name: "AlertStore", dependencies: ["Fuel", "Postgres", "Crypto", "Coordination"]),
        // Pushes through a gorush relay (`POST /api/push`): batching, retries, dead tokens. Knows nothing about fuel.
        .target(name: "Push"),
        // etcd v3 over its JSON gateway, and the fleet's election and fencing: knows nothing about fuel.
        .target(name: "Coordination", dependencies: ["Clocks"]),
        // One folder per endpoint: controllers, the wire contract (DTOs, the JSON writer) and per-snapshot renders.
        .target(name: "API", dependencies: ["HTTP", "Fuel"]),
        // Wiring: configuration, commands, persistence, replication, pollers, the fleet and the application builder.
        .target(name: "App", dependencies: ["API", "HTTP", "Fuel", "Providers", "Coordination", "Crypto", "Clocks", "AlertStore", "Postgres", "Push"]),
        .executableTarget(name: "Run", dependencies: ["App"]),
        .executableTarget(name: "PettyBench", dependencies: ["App", "Fuel", "Providers", "TestSupport", "FakeRelay"], path: "Benchmarks/Sources/PettyBench"),

        // What the test targets (and the benchmark's synthetic datasets) share: the seeded generator, and a fake etcd.
        .target(name: "TestSupport", dependencies: ["HTTP"], path: "Tests/TestSupport"),
        // A gorush stand-in on loopback for the push, alert and benchmark tests.
        .target(name: "FakeRelay", dependencies: ["HTTP"], path: "Tests/FakeRelay"),
        // The live PostgreSQL of the alert suites, and a fresh database per test on it.
        .target(name: "LivePostgres", dependencies: ["Postgres"], path: "Tests/LivePostgres"),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "TestSupport"]),
        .testTarget(name: "FuelTests", dependencies: ["Fuel", "TestSupport"]),
        .testTarget(name: "ProvidersTests", dependencies: ["Providers", "Fuel", "HTTP", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "Crypto", "Clocks"]),
        .testTarget(name: "AlertStoreTests", dependencies: ["AlertStore", "Fuel", "Postgres", "Crypto", "LivePostgres"]),
        .testTarget(name: "PushTests", dependencies: ["Push", "FakeRelay"]),
        .testTarget(name: "CoordinationTests", dependencies: ["Coordination", "HTTP", "TestSupport"]),
        .testTarget(name: "AppTests", dependencies: ["App", "API", "HTTP", "Fuel", "Providers", "TestSupport", "AlertStore", "Postgres", "Push", "FakeRelay", "LivePostgres"]),
    ],
    swiftLanguageModes: [.v6]
)

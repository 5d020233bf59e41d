// Intentionally empty: SwiftPM needs a source file for the CEpoll C target.

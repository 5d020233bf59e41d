#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// Hands freed heap pages back to the operating system (glibc keeps them otherwise), so the resident size after
/// a burst of short-lived allocations returns to what the process really holds.
public enum MemoryPressure {
    public static func releaseFreePages() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}

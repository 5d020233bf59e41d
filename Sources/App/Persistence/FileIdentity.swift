#if canImport(Glibc)
import Glibc
#endif

/// Which file is at a path right now (device, inode, size), so a deleted, replaced or truncated file is noticed
/// without reading it.
struct FileIdentity: Equatable, Sendable {
    let path: String
    let exists: Bool
    let device: UInt64
    let inode: UInt64
    let size: Int

    init(path: String) {
        self.path = path
        var info = stat()
        if stat(path, &info) == 0 {
            exists = true
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int(info.st_size)
        } else {
            exists = false
            device = 0
            inode = 0
            size = 0
        }
    }
}

import Foundation
import LumaAnalysis
import LumaFormat

extension DebugImages {
    /// Debug images as PGM files in `folder` (`replay --dump DIR`): `NAME.pgm`.
    static func pgmFiles(in folder: String) -> DebugImages {
        DebugImages(folder: folder) { name, width, height, pixels in
            let url = URL(fileURLWithPath: folder).appendingPathComponent(name + ".pgm")
            do { try Data(PGMCodec.encode(width: width, height: height, pixels: pixels)).write(to: url) } catch {
                throw DebugImageWriteError(path: url.path, underlying: error)
            }
        }
    }
}

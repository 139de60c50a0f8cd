#include "fwi/vti_export.hpp"

#include "fwi/error.hpp"
#include "io/atomic_file.hpp"
#include "io/xml_text.hpp"

#include <bit>
#include <cctype>
#include <cstdint>
#include <span>
#include <sstream>

namespace fwi {
namespace {

static_assert(std::endian::native == std::endian::little, "the .vti writer assumes a little-endian host");

bool valid_name(const std::string& name) {
    if (name.empty()) return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    return true;
}

std::string number(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

/// Replaces `path` with `text` atomically (detail::replace_file).
void write_text(const std::filesystem::path& path, const std::string& text) {
    detail::replace_file(path.string(), std::as_bytes(std::span(text.data(), text.size())));
}

} // namespace

void write_vti(const std::filesystem::path& path, const Grid& grid, const std::vector<VtiArray>& arrays) {
    if (arrays.empty()) throw ConfigError("write_vti " + path.string() + ": no arrays to write");
    const bool volume = grid.rank == 3;
    if (grid.nz() < 1 || grid.nx() < 1 || grid.ny() < 1 || !(grid.dz() > 0) || !(grid.dx() > 0) ||
        (volume && !(grid.dy() > 0)))
        throw ConfigError("write_vti " + path.string() + ": empty or invalid grid");
    for (const VtiArray& a : arrays) {
        if (!valid_name(a.name))
            throw ConfigError("write_vti " + path.string() + ": array name '" + a.name +
                              "' (letters, digits, '_' and '-' only)");
        if (a.field.rows != grid.rows() || a.field.cols != grid.nx() || a.field.data == nullptr)
            throw ConfigError("write_vti " + path.string() + ": array '" + a.name + "' is " +
                              std::to_string(a.field.rows) + " x " + std::to_string(a.field.cols) +
                              "; the grid is " + std::to_string(grid.rows()) + " rows x " +
                              std::to_string(grid.nx()));
    }
    const std::uint64_t block = std::uint64_t(grid.cells()) * sizeof(float);
    // 2D: VTK (x, y) = (x, depth), y flipped so depth points down. 3D: VTK (x, y, z) = (x, y, depth), z
    // flipped. Either way VTK's point order (x fastest) is the arrays' own.
    const std::string extent =
        volume ? "0 " + std::to_string(grid.nx() - 1) + " 0 " + std::to_string(grid.ny() - 1) + " 0 " +
                     std::to_string(grid.nz() - 1)
               : "0 " + std::to_string(grid.nx() - 1) + " 0 " + std::to_string(grid.nz() - 1) + " 0 0";
    const std::string spacing = volume ? number(grid.dx()) + " " + number(grid.dy()) + " " + number(grid.dz())
                                       : number(grid.dx()) + " " + number(grid.dz()) + " 1";
    const char* direction = volume ? "1 0 0 0 1 0 0 0 -1" : "1 0 0 0 -1 0 0 0 1";
    std::ostringstream head;
    head
        << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"0 0 0\" Spacing=\"" << spacing
        << "\" Direction=\"" << direction << "\">\n"
        << "    <Piece Extent=\"" << extent << "\">\n"
        << "      <PointData Scalars=\"" << arrays.front().name << "\">\n";
    std::uint64_t offset = 0;
    for (const VtiArray& a : arrays) {
        head << "        <DataArray type=\"Float32\" Name=\"" << detail::xml_escaped(a.name)
             << "\" NumberOfComponents=\"1\" format=\"appended\" offset=\"" << offset << "\"/>\n";
        offset += sizeof(std::uint64_t) + block;
    }
    head << "      </PointData>\n"
         << "    </Piece>\n"
         << "  </ImageData>\n"
         << "  <AppendedData encoding=\"raw\">\n   _";
    // The whole file in memory, then one atomic replacement (as projects are saved).
    std::string text = head.str();
    text.reserve(text.size() + arrays.size() * (sizeof block + block) + 32);
    for (const VtiArray& a : arrays) {
        text.append(reinterpret_cast<const char*>(&block), sizeof block);
        text.append(reinterpret_cast<const char*>(a.field.data), block);
    }
    text += "\n  </AppendedData>\n</VTKFile>\n";
    write_text(path, text);
}

void write_pvd(const std::filesystem::path& path, const std::vector<PvdEntry>& entries) {
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
    std::ostringstream text;
    text << "<?xml version=\"1.0\"?>\n"
         << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
         << "  <Collection>\n";
    for (const PvdEntry& e : entries) {
        std::filesystem::path file = e.file;
        const std::filesystem::path rel = std::filesystem::weakly_canonical(e.file).lexically_relative(
            std::filesystem::weakly_canonical(dir));
        if (!rel.empty() && *rel.begin() != "..") file = rel;
        text << "    <DataSet timestep=\"" << number(e.time) << "\" group=\"\" part=\"0\" file=\""
             << detail::xml_escaped(file.generic_string()) << "\"/>\n";
    }
    text << "  </Collection>\n</VTKFile>\n";
    write_text(path, text.str());
}

} // namespace fwi

'use strict';
// PGlite's Node file system (Emscripten's NODEFS) creates the data directory's files with the
// modes the engine asks for and then chmods them: 0666 for every file of a fresh cluster, 0777
// directories, whatever the process umask. A umask cannot help (chmod ignores it, and a worker
// thread may not set one), so the worker hosting the engine clamps every mode its own `fs` module
// is handed: files 0600 at most, directories 0700 at most. Worker threads have their own module
// instances, so this changes nothing outside the engine's thread.

const FILE = 0o600;
const DIRECTORY = 0o700;
const TYPE_BITS = 0o170000;
const DIRECTORY_TYPE = 0o040000;

function clamp(mode, allowed) {
  if (typeof mode === 'string') mode = parseInt(mode, 8);
  if (typeof mode !== 'number' || !Number.isFinite(mode)) return mode;
  return mode & 0o7777 & allowed;
}

function clampOptions(options, allowed) {
  if (typeof options === 'number' || typeof options === 'string') return clamp(options, allowed);
  if (options && typeof options === 'object') return { ...options, mode: clamp(options.mode ?? 0o777, allowed) };
  return { mode: allowed };
}

/** The permission a chmod target may have: Emscripten passes the full st_mode, a caller may not. */
function allowedFor(mode, stat) {
  if (typeof mode === 'number' && (mode & TYPE_BITS) !== 0) return (mode & TYPE_BITS) === DIRECTORY_TYPE ? DIRECTORY : FILE;
  try {
    return stat().isDirectory() ? DIRECTORY : FILE;
  } catch {
    return FILE;
  }
}

function ownerOnly(fs) {
  const { mkdirSync, writeFileSync, openSync, chmodSync, fchmodSync, statSync, fstatSync } = fs;
  fs.mkdirSync = (path, options) => mkdirSync(path, clampOptions(options, DIRECTORY));
  fs.writeFileSync = (path, data, options) =>
    writeFileSync(path, data, typeof options === 'string' ? { encoding: options, mode: FILE } : clampOptions(options, FILE));
  fs.openSync = (path, flags, mode) => openSync(path, flags, clamp(mode ?? FILE, FILE));
  fs.chmodSync = (path, mode) =>
    chmodSync(
      path,
      clamp(
        mode,
        allowedFor(mode, () => statSync(path)),
      ),
    );
  fs.fchmodSync = (fd, mode) =>
    fchmodSync(
      fd,
      clamp(
        mode,
        allowedFor(mode, () => fstatSync(fd)),
      ),
    );
}

module.exports = { ownerOnly };

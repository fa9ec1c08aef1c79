// Registers a resolve hook that appends every specifier it sees to IMPORT_LOG (one per line):
// lets a test see which packages a program really loads, dynamic imports included.
import { register } from "node:module"

register(new URL("./import-recorder-hooks.mjs", import.meta.url))

// The CED anchor of `xtask bench`: reads a list of paths (one per line) and
// prints, for each, the encoding Google's compact_enc_det names (npm `ced`),
// one per line, in order. Usage: node ced.js LIST_FILE
"use strict";
const fs = require("fs");
const ced = require("ced");

const paths = fs.readFileSync(process.argv[2], "utf8").split("\n").filter((p) => p.length > 0);
const out = [];
for (const path of paths) {
  out.push(ced(fs.readFileSync(path)));
}
process.stdout.write(out.join("\n") + "\n");

// The Activity's build (build.sh runs it with esbuild pinned there):
// main.js and main.css bundled and minified into app.js and app.css.
//
// The vendored SDK's modules are marked free of side effects (its
// package declares none, and none is imported for them alone): what the
// page does not use of it (the price and permission helpers, its mock)
// is left out. Two of its files are read with a change that keeps what
// they do and makes the page start sooner on a slow phone (each change
// fails the build when the file no longer reads as expected):
// - Constants.mjs: the Permissions table's calls are marked pure, so
//   that the unused table, and big-integer with it (22 KB), are left out;
// - zod (lib/zod/lib/index.mjs): a schema no longer binds its 24
//   methods to itself when it is made. The SDK makes 1,379
//   schemas as it loads, before the handshake, and calls their methods
//   only as methods (schema.parse(x)), never detached, which is all
//   the binding is for.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const esbuild = createRequire(process.env.ESBUILD_DIR + "/")("esbuild");
const [banner, meta] = process.argv.slice(2);

const sdkPure = {
  name: "sdk-pure",
  setup(build) {
    build.onResolve({ filter: /\.mjs$/ }, async (args) => {
      if (args.pluginData === "sdk-pure") return undefined;
      const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "sdk-pure" });
      if (r.errors.length > 0) return { errors: r.errors };
      return /[\\/]discord-sdk[\\/]/.test(r.path) ? { ...r, sideEffects: false } : r;
    });
  },
};

// sdkEdit reads the SDK's file matching filter through edit, which must
// change it.
const sdkEdit = (name, filter, edit) => ({
  name,
  setup(build) {
    build.onLoad({ filter }, (args) => {
      const src = readFileSync(args.path, "utf8");
      const out = edit(src);
      if (out === src) throw new Error(`${name}: ${args.path} no longer reads as expected; look at build.mjs`);
      return { contents: out, loader: "js" };
    });
  },
});
const permissionsPure = sdkEdit("permissions-pure", /[\\/]discord-sdk[\\/]Constants\.mjs$/, (src) =>
  src.replace(/= Object\.freeze\(\{\n(\s+CREATE_INSTANT_INVITE)/, "= /* @__PURE__ */ Object.freeze({\n$1").replace(/BigFlagUtils\.getFlag\(/g, "/* @__PURE__ */ BigFlagUtils.getFlag("));
const zodUnbound = sdkEdit("zod-unbound", /[\\/]discord-sdk[\\/]lib[\\/]zod[\\/]lib[\\/]index\.mjs$/, (src) =>
  src.replace(/^ +this\.(\w+) = this\.\1\.bind\(this\);\n/gm, ""));

const common = { bundle: true, minify: true, charset: "utf8", logLevel: "warning", metafile: true };
const js = await esbuild.build({ ...common, entryPoints: ["main.js"], outfile: "app.js", format: "iife", target: "es2020",
  legalComments: "inline", banner: { js: banner }, plugins: [sdkPure, permissionsPure, zodUnbound] });
const css = await esbuild.build({ ...common, entryPoints: ["main.css"], outfile: "app.css" });
const files = new Set(["build.sh", "build.mjs", "app.js", "app.css", "../discord-sdk/LICENSE.md"]); // the licence: the banner
for (const m of [js.metafile, css.metafile]) for (const f of Object.keys(m.inputs)) files.add(f);
writeFileSync(meta, [...files].sort().join("\n") + "\n");

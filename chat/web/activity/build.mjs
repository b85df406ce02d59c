// The Activity's build (build.sh runs it with esbuild pinned there):
// main.js and main.css bundled and minified into app.js and app.css.
//
// The vendored SDK's modules are marked free of side effects (its
// package declares none, and none is imported for them alone): what the
// page does not use of it (big-integer, the price and permission
// helpers, its mock) is left out. Its files are read as they are.
import { writeFileSync } from "node:fs";
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

const common = { bundle: true, minify: true, charset: "utf8", logLevel: "warning", metafile: true };
const js = await esbuild.build({ ...common, entryPoints: ["main.js"], outfile: "app.js", format: "iife", target: "es2020",
  legalComments: "inline", banner: { js: banner }, plugins: [sdkPure] });
const css = await esbuild.build({ ...common, entryPoints: ["main.css"], outfile: "app.css" });
const files = new Set(["build.sh", "build.mjs", "app.js", "app.css", "../discord-sdk/LICENSE.md"]); // the licence: the banner
for (const m of [js.metafile, css.metafile]) for (const f of Object.keys(m.inputs)) files.add(f);
writeFileSync(meta, [...files].sort().join("\n") + "\n");

#!/usr/bin/env node
// Run the CLI straight from src/ without a build (for development, and for several people working in
// one checkout at once, since `npm run build` replaces dist/): node --import tsx scripts/dev.mjs ARGS
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));

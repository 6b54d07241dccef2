/** The command line's public surface: `main(argv)`, which bin/acilab.js and the end-to-end tests call. */
export { main } from "./main.js";

// Files bundled into the binary with `import path from "./x.ranks" with { type: "file" }`: the
// import is the file's path (inside the executable once compiled).
declare module "*.ranks" {
  const path: string;
  export default path;
}

// The browser files of this folder, as the Worker sees them: their source text, imported through the
// Text module rules in wrangler.toml. The `.browser.js` suffix marks a file as one: TypeScript reads
// these declarations for an import it does not check as code, and the rules match by that suffix.
declare module "*.browser.js" {
  const source: string;
  export default source;
}

declare module "*.css" {
  const source: string;
  export default source;
}

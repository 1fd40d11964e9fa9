// Tests never reach the internet: an outbound call that no test intercepted (with
// vi.spyOn(globalThis, "fetch")) fails like a refused connection instead of resolving a real host.
globalThis.fetch = async (input: RequestInfo | URL) => {
  throw new TypeError(`network disabled in tests: ${new Request(input).url}`);
};

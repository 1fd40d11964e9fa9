// Built once per object: the bindings object lives as long as the isolate (workerd passes the same one to
// every request, batch and alarm), so what depends on it alone is built once per isolate. A different
// object (a test's own env) gets its own.

export function perObject<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) {
      value = build(key);
      built.set(key, value);
    }
    return value;
  };
}

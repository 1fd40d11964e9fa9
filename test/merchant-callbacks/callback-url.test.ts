import { describe, expect, it } from "vitest";
import { callbackUrlProblem } from "../../src/domain/merchant-callbacks/callback-url";

const production = { allowLocalHttp: false };
const development = { allowLocalHttp: true };

describe("callback URL rules", () => {
  it("allows only the default https port in production, any port in development", () => {
    expect(callbackUrlProblem("https://merchant.example.com:8443/x?y=1", production)).toBe("Use the default https port (443).");
    expect(callbackUrlProblem("https://8.8.8.8:22/", production)).toBe("Use the default https port (443).");
    expect(callbackUrlProblem("https://merchant.example.com:8443/x?y=1", development)).toBeNull();
  });

  it.each([
    "https://merchant.example.com/hooks/age",
    "https://merchant.example.com:443/x?y=1",
    "https://8.8.8.8/cb",
    "https://[2606:4700::1111]/cb",
  ])("accepts the public https URL %s", (url) => {
    expect(callbackUrlProblem(url, production)).toBeNull();
  });

  it.each([
    "http://merchant.example.com/x",
    "ftp://merchant.example.com/x",
    "/relative/path",
    "merchant.example.com/x",
    "https://user:pw@merchant.example.com/",
    "https://user@merchant.example.com/",
    "https://10.0.0.1/x",
    "https://172.16.5.4/x",
    "https://192.168.1.1/x",
    "https://127.0.0.1/x",
    "https://169.254.169.254/latest/meta-data",
    "https://100.64.0.1/x",
    "https://0.0.0.0/x",
    "https://2130706433/x", // 127.0.0.1 in decimal
    "https://0x7f.0.0.1/x", // hex
    "https://0177.0.0.1/x", // octal
    "https://[::1]/",
    "https://[::]/",
    "https://[fe80::1]/",
    "https://[fd00::1]/",
    "https://[::ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://localhost/x",
    "https://api.localhost/x",
    `https://merchant.example.com/${"a".repeat(2048)}`,
  ])("refuses %s", (url) => {
    expect(callbackUrlProblem(url, production)).toEqual(expect.any(String));
  });

  it("allows http://localhost and http://127.0.0.1 in development only", () => {
    expect(callbackUrlProblem("http://localhost:4000/cb", development)).toBeNull();
    expect(callbackUrlProblem("http://127.0.0.1:4000/cb", development)).toBeNull();
    expect(callbackUrlProblem("http://localhost:4000/cb", production)).toEqual(expect.any(String));
    expect(callbackUrlProblem("http://10.0.0.1/cb", development)).toEqual(expect.any(String));
  });
});

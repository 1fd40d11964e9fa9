import { describe, expect, it } from "vitest";
import { addressKey } from "../../src/lib/address-key";

describe("addressKey", () => {
  it("keys an IPv6 client by its /64, whatever the spelling", () => {
    const key = "2001:db8:85a3:8d3::/64";
    expect(addressKey("2001:db8:85a3:8d3:1319:8a2e:370:7348")).toBe(key);
    expect(addressKey("2001:0DB8:85A3:08D3:ffff:ffff:ffff:ffff")).toBe(key);
    expect(addressKey("2001:db8:85a3:8d3::1")).toBe(key);
    expect(addressKey("[2001:db8:85a3:8d3::2]")).toBe(key);
  });

  it("two addresses in different /64s get different keys", () => {
    expect(addressKey("2001:db8:85a3:8d3::1")).not.toBe(addressKey("2001:db8:85a3:8d4::1"));
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("keeps an IPv4 client exact, also when written IPv4-mapped", () => {
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("::ffff:192.0.2.1")).toBe("::ffff:c000:201");
    expect(addressKey("::ffff:192.0.2.1")).not.toBe(addressKey("::ffff:192.0.2.2"));
  });

  it("leaves what is not an address as it is (its own key)", () => {
    for (const odd of ["unknown", "1:2:3", "2001:db8::1::2", "gggg::1"]) expect(addressKey(odd)).toBe(odd);
  });
});

import { describe, expect, it } from "vitest";
import { ipKey } from "./ip-key";

describe("ipKey", () => {
  it("keeps IPv4 addresses, and reads IPv4 written as IPv6 as IPv4", () => {
    expect(ipKey("203.0.113.9")).toBe("203.0.113.9");
    expect(ipKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts IPv6 addresses by their /64", () => {
    expect(ipKey("2001:db8:85a3:1:8a2e:370:7334:1")).toBe("2001:db8:85a3:1::/64");
    expect(ipKey("2001:0db8:85a3:0001:ffff:ffff:ffff:ffff")).toBe("2001:db8:85a3:1::/64");
    expect(ipKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipKey("::1")).toBe("0:0:0:0::/64");
  });

  it("leaves anything else as it is", () => {
    expect(ipKey("unknown")).toBe("unknown");
  });
});

import { isIPv4, isIPv6 } from "node:net";

/**
 * The part of a client address that limits count by. One IPv6 subscriber is usually given a
 * whole /64, so counting single IPv6 addresses would let one person rotate through billions:
 * IPv6 addresses count by their /64 prefix. An IPv4 address written as IPv6 (`::ffff:1.2.3.4`)
 * counts as the IPv4 address.
 */
export function ipKey(ip: string) {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(":")}::/64`;
}

/** The eight groups of an IPv6 address, `::` filled in, without leading zeros. */
function expandIPv6(ip: string) {
  const [head = "", tail] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => group.replace(/^0+(?=.)/, ""));
}

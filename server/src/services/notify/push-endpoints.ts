import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { promisify } from 'node:util';
import ipaddr from 'ipaddr.js';

/**
 * A push endpoint is a URL the server posts to on a stranger's behalf, so it must never lead
 * inside the server's own network: https, a host name (no IP literal), and every address the
 * name resolves to a public unicast one (no loopback, private, link-local, CGNAT, multicast or
 * otherwise reserved). Hosts the operator names in PUSH_ENDPOINT_HOSTS_ALLOWED are exempt
 * (local receivers; plain http allowed).
 */

const lookupAll = promisify(dnsLookup) as unknown as (host: string, options: LookupAllOptions) => Promise<LookupAddress[]>;

export type EndpointProblem = string;

/** Whether `address` is one a public push service may have: ipaddr.js's `unicast` range (IPv4-mapped IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

export function isExemptHost(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  return allowedHosts.includes(url.host.toLowerCase()) || allowedHosts.includes(host);
}

/** The endpoint's problem in a sentence, or null when the server may post to it. */
export async function endpointProblem(endpoint: string, allowedHosts: readonly string[], resolve = lookupAll): Promise<EndpointProblem | null> {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be an https URL';
  }
  if (url.username || url.password) return 'endpoint must not carry a user name or password';
  if (isExemptHost(url, allowedHosts)) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'endpoint must be an https URL';
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host) || /^[0-9.]+$/.test(host)) return 'endpoint must name a host, not an IP address';
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host, { all: true });
  } catch {
    return 'endpoint host could not be resolved';
  }
  if (addresses.length === 0) return 'endpoint host could not be resolved';
  if (!addresses.every((a) => isPublicAddress(a.address))) return 'endpoint host resolves to a private or reserved address';
  return null;
}

/**
 * A `lookup` for the push request itself: the same rule again at connection time, so a name that
 * resolved to a public address when subscribed and to a private one now (DNS rebinding) is refused.
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupAllOptions | Record<string, unknown>,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
): void {
  dnsLookup(hostname, { ...(options as object), all: true }, (error, addresses) => {
    if (error) return callback(error, '');
    const list = addresses as LookupAddress[];
    const refused = list.find((a) => !isPublicAddress(a.address));
    if (refused || list.length === 0) {
      const problem = Object.assign(new Error(`push endpoint ${hostname} resolves to a private or reserved address`), { code: 'EPRIVATEADDRESS' });
      return callback(problem, '');
    }
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

/** The raw bytes of a base64url key, or null when it is not base64url. */
export function keyBytes(value: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]+=*$/.test(value)) return null;
  return Buffer.from(value.replace(/=+$/, ''), 'base64url');
}

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

function openssl(args: string[], cwd: string) {
  return execFileSync("openssl", args, { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString();
}

/**
 * A root CA, an intermediate standing in for Apple's WWDR, and a pass certificate it signed, made
 * with OpenSSL in a folder of their own (tests only).
 */
export function testPassCertificates() {
  const dir = mkdtempSync(path.join(tmpdir(), "wallet-"));
  const days = ["-days", "30"];
  openssl(
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "ca.key",
      "-out",
      "ca.pem",
      "-subj",
      "/CN=Test Root CA",
      ...days,
    ],
    dir,
  );
  writeFileSync(path.join(dir, "ca.ext"), "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n");
  openssl(
    ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "wwdr.key", "-out", "wwdr.csr", "-subj", "/CN=Test WWDR"],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "wwdr.csr",
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      "wwdr.pem",
      "-extfile",
      "ca.ext",
      ...days,
    ],
    dir,
  );
  writeFileSync(path.join(dir, "leaf.ext"), "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\n");
  openssl(
    [
      "req",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      "pass.key",
      "-out",
      "pass.csr",
      "-subj",
      "/UID=pass.example.club/CN=Pass Type ID: pass.example.club/O=Test Club",
    ],
    dir,
  );
  openssl(
    [
      "x509",
      "-req",
      "-in",
      "pass.csr",
      "-CA",
      "wwdr.pem",
      "-CAkey",
      "wwdr.key",
      "-CAcreateserial",
      "-out",
      "pass.pem",
      "-extfile",
      "leaf.ext",
      ...days,
    ],
    dir,
  );
  const read = (name: string) => readFileSync(path.join(dir, name));
  return { dir, cert: read("pass.pem"), key: read("pass.key"), wwdr: read("wwdr.pem") };
}

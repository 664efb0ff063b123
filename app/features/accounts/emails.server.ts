import type { OutboundEmail } from "~/server/mail/mail.server";

/** What every account email needs to know about the site. */
export type Branding = { siteName: string; siteUrl: string };

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * One layout for every account email: the site's name, a short message, at most one button, and
 * the same words as plain text for mail clients that show no HTML.
 */
export function accountEmail(
  brand: Branding,
  to: string,
  subject: string,
  parts: { greeting: string; lines: string[]; action?: { label: string; url: string }; footnote?: string },
): OutboundEmail {
  const { greeting, lines, action, footnote } = parts;
  const text = [
    greeting,
    "",
    ...lines.flatMap((line) => [line, ""]),
    ...(action ? [`${action.label}: ${action.url}`, ""] : []),
    ...(footnote ? [footnote, ""] : []),
    `— ${brand.siteName}`,
    brand.siteUrl,
  ].join("\n");
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f6f6f7;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#16181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" style="max-width:560px;background:#ffffff;border-radius:16px;overflow:hidden">
<tr><td style="background:#111214;padding:20px 28px;color:#ffffff;font-weight:800;font-size:20px;letter-spacing:.02em;text-transform:uppercase">${escapeHtml(brand.siteName)}</td></tr>
<tr><td style="padding:28px;font-size:16px;line-height:1.6">
<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
${lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join("\n")}
${action ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#ff7a1a;color:#111214;font-weight:700;text-decoration:none;padding:12px 22px;border-radius:999px">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#4b5058">Or paste this address into your browser: ${escapeHtml(action.url)}</p>` : ""}
${footnote ? `<p style="margin:0;font-size:13px;color:#4b5058">${escapeHtml(footnote)}</p>` : ""}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e9eaec;font-size:12px;color:#4b5058"><a href="${escapeHtml(brand.siteUrl)}" style="color:#1d4ed8">${escapeHtml(brand.siteUrl)}</a></td></tr>
</table></td></tr></table></body></html>`;
  return { to, subject, text, html };
}

const hello = (name: string | null | undefined) => (name ? `Hi ${name},` : "Hi,");

export function verificationEmail(brand: Branding, to: string, name: string, url: string) {
  return accountEmail(brand, to, `Confirm your email for ${brand.siteName}`, {
    greeting: hello(name),
    lines: [
      `Please confirm that ${to} is your email address. You need a confirmed address to buy tickets and enter draws.`,
    ],
    action: { label: "Confirm my email", url },
    footnote: "The link works for 24 hours. If you did not create an account, ignore this email.",
  });
}

export function existingAccountNotice(brand: Branding, to: string, name: string) {
  return accountEmail(brand, to, `You already have a ${brand.siteName} account`, {
    greeting: hello(name),
    lines: [
      "Someone (hopefully you) tried to create a new account with this email address, but you already have one.",
      "Sign in instead, or reset your password if you have forgotten it.",
    ],
    action: { label: "Sign in", url: `${brand.siteUrl}/login` },
    footnote: "If this was not you, you can ignore this email: nothing has changed.",
  });
}

export function magicLinkEmail(brand: Branding, to: string, url: string) {
  return accountEmail(brand, to, `Your sign-in link for ${brand.siteName}`, {
    greeting: "Hi,",
    lines: ["Here is the link you asked for. It signs you in on the device where you open it."],
    action: { label: "Sign me in", url },
    footnote: "The link works once, for 10 minutes. If you did not ask for it, ignore this email.",
  });
}

export function resetPasswordEmail(brand: Branding, to: string, name: string, url: string) {
  return accountEmail(brand, to, `Reset your ${brand.siteName} password`, {
    greeting: hello(name),
    lines: ["Someone (hopefully you) asked to reset the password of your account."],
    action: { label: "Choose a new password", url },
    footnote:
      "The link works once, for one hour. If you did not ask for it, ignore this email: your password stays as it is.",
  });
}

export function emailChangedNotice(brand: Branding, to: string, name: string, newEmail: string) {
  return accountEmail(brand, to, `Your ${brand.siteName} email address was changed`, {
    greeting: hello(name),
    lines: [
      `The email address of your account was changed to ${newEmail}.`,
      "If you did not do this, reply to this email or reset your password straight away.",
    ],
  });
}

export function newEmailConfirmation(brand: Branding, to: string, name: string, url: string) {
  return accountEmail(brand, to, `Confirm your new email address for ${brand.siteName}`, {
    greeting: hello(name),
    lines: [
      `You asked to use ${to} for your ${brand.siteName} account. Confirm it to finish the change.`,
      "Until you do, your account keeps its current address.",
    ],
    action: { label: "Confirm my new email", url },
    footnote: "The link works for 24 hours. If you did not ask for this, ignore this email: nothing changes.",
  });
}

export function passwordChangedNotice(brand: Branding, to: string, name: string) {
  return accountEmail(brand, to, `Your ${brand.siteName} password was changed`, {
    greeting: hello(name),
    lines: [
      "The password of your account was just changed, and every other device was signed out.",
      "If you did not do this, reset your password straight away.",
    ],
    action: { label: "Reset my password", url: `${brand.siteUrl}/forgotPassword` },
  });
}

export function accountDeletedNotice(brand: Branding, to: string, name: string) {
  return accountEmail(brand, to, `Your ${brand.siteName} account was deleted`, {
    greeting: hello(name),
    lines: [
      "Your account and your personal data have been deleted, as you asked.",
      "We keep orders without your name or contact details, because the law asks us to keep accounts of sales.",
      "Thank you for being part of the club.",
    ],
  });
}

export function phoneCodeText(siteName: string, code: string) {
  return `${code} is your ${siteName} verification code. It expires in 10 minutes.`;
}

import { Wallet } from "lucide-react";

/**
 * "Add to Apple Wallet" and "Add to Google Wallet" under a ticket or the member card (`base`: the
 * address the passes hang from), for the wallets the club has set up (none: nothing shows). Plain
 * links: the pass is a file, the Google link a redirect.
 */
export function WalletButtons({ base, wallets }: { base: string; wallets: { apple: boolean; google: boolean } }) {
  if (!wallets.apple && !wallets.google) return null;
  const link =
    "inline-flex items-center gap-2 rounded-full bg-text px-4 py-2 text-sm font-bold text-surface hover:opacity-90";
  return (
    <p className="flex flex-wrap gap-2">
      {wallets.apple ? (
        <a href={`${base}/wallet.pkpass`} download className={link}>
          <Wallet aria-hidden className="size-4" /> Add to Apple Wallet
        </a>
      ) : null}
      {wallets.google ? (
        <a href={`${base}/google-wallet`} className={link}>
          <Wallet aria-hidden className="size-4" /> Add to Google Wallet
        </a>
      ) : null}
    </p>
  );
}

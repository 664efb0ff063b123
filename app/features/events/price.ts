import { formatMoney } from "~/ui/money";
import { useSite } from "~/ui/site";

/** Price as a tile or ticket shows it: whole pounds without pence, nothing to pay as "Free". */
export function usePrice() {
  const { currency } = useSite();
  return (minor: number) => (minor === 0 ? "Free" : formatMoney(minor, currency, { compact: true }));
}

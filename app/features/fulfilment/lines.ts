/** One merch line of an order as staff and the buyer see it: the product, its options, how many. */
export type MerchLine = { id: string; orderId: string; product: string; options: string[]; quantity: number };

/** "1 × Club tee (M / Black)". */
export function lineLabel(line: Pick<MerchLine, "product" | "options" | "quantity">) {
  return `${line.quantity} × ${line.product}${line.options.length > 0 ? ` (${line.options.join(" / ")})` : ""}`;
}

/** An address on one line per part, blanks left out, for labels and emails. */
export function addressLines(address: {
  name: string;
  line1: string;
  line2?: string;
  town: string;
  region?: string;
  postcode: string;
  country: string;
}) {
  return [
    address.name,
    address.line1,
    address.line2,
    address.town,
    address.region,
    address.postcode,
    address.country,
  ].filter((part): part is string => Boolean(part?.trim()));
}

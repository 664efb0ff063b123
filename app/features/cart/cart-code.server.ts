import { eq } from "drizzle-orm";
import { type AttemptRule, countAttempt } from "~/features/accounts/attempts.server";
import { ipKey } from "~/features/accounts/ip-key";
import { normaliseCode } from "~/features/vouchers/voucher-rules";
import { voucherByCode } from "~/features/vouchers/voucher-uses.server";
import type { Db } from "~/server/db/client.server";
import { carts } from "../../../db/schema";
import { type CartOwner, getOrCreateCart } from "./cart.server";

/**
 * Codes typed into carts from one network: plenty for a family trying a few, far too few to guess
 * a batch's codes by trying them.
 */
const CODE_TRIES_BY_IP: AttemptRule = { max: 20, windowSeconds: 10 * 60 };

export type CodeEntry = { ok: true; code: string } | { ok: false; message: string };

/**
 * Puts a voucher or discount code in the owner's cart (the cart's form, or a `?voucher=` link),
 * replacing any other: one code per order. Whether it can be used on what the cart holds is the
 * cart page's advice and checkout's decision; here only that such a code exists.
 */
export async function enterCode(
  db: Db,
  input: { owner: CartOwner; typed: string; ip: string; now: Date },
): Promise<CodeEntry> {
  const tries = await countAttempt(db, `cart-code:${ipKey(input.ip)}`, CODE_TRIES_BY_IP, input.now);
  if (!tries.allowed) {
    return {
      ok: false,
      message: "Too many codes have been tried from your network. Wait a few minutes and try again.",
    };
  }
  const voucher = await voucherByCode(db, input.typed);
  if (!voucher) {
    return { ok: false, message: `There is no code ${normaliseCode(input.typed)}: check it and try again` };
  }
  const cartId = await getOrCreateCart(db, input.owner);
  await db.update(carts).set({ voucherId: voucher.id, updatedAt: input.now }).where(eq(carts.id, cartId));
  return { ok: true, code: voucher.code };
}

/** Takes the code out of the cart. */
export async function removeCode(db: Db, input: { cartId: string; now: Date }) {
  await db.update(carts).set({ voucherId: null, updatedAt: input.now }).where(eq(carts.id, input.cartId));
}

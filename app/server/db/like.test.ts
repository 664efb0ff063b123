import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { containing, endingWith, escapeLike } from "./like";
import { freshDatabasePerFile } from "./test-database";

const database = freshDatabasePerFile();

describe("LIKE patterns", () => {
  it("escape the wildcards and the escape character", () => {
    expect(escapeLike("100%_a\\b")).toBe("100\\%\\_a\\\\b");
    expect(containing("j_s")).toBe("%j\\_s%");
    expect(endingWith("%")).toBe("%\\%");
  });

  it("match what was typed, character for character, in PostgreSQL", async () => {
    const { db } = database();
    const values = ["j_smith", "jxsmith", "100% petrol", "100 petrol", "back\\slash", "backslash"];
    const matches = async (pattern: string) => {
      const result = (await db.execute(
        sql`select value from unnest(${sql.param(values)}::text[]) as value where value ilike ${pattern} order by value`,
      )) as unknown as { rows: { value: string }[] };
      return result.rows.map((row) => row.value);
    };
    expect(await matches(containing("_"))).toEqual(["j_smith"]);
    expect(await matches(containing("J_S"))).toEqual(["j_smith"]);
    expect(await matches(containing("%"))).toEqual(["100% petrol"]);
    expect(await matches(containing("\\"))).toEqual(["back\\slash"]);
    expect(await matches(endingWith("_smith"))).toEqual(["j_smith"]);
  });
});

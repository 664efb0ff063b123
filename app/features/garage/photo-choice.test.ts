import { describe, expect, it } from "vitest";
import { choiceNotice, sortChosenPhotos } from "./photo-choice";

const MB = 1024 * 1024;
const jpeg = (name: string, bytes = 1000) => new File([new Uint8Array(bytes)], name, { type: "image/jpeg" });
const limits = { room: 20, maxPhotos: 20, maxBytes: 15 * MB };

describe("sortChosenPhotos", () => {
  it("takes every photo that fits, in the order chosen", () => {
    const files = [jpeg("front.jpg"), jpeg("side.jpg"), jpeg("rear.jpg")];
    expect(sortChosenPhotos(files, limits)).toEqual({ accepted: files, refused: [] });
  });

  it("says why it leaves out a file that is not a photo or is too large", () => {
    const notes = new File(["hello"], "notes.txt", { type: "text/plain" });
    const huge = jpeg("huge.jpg", 15 * MB + 1);
    const front = jpeg("front.jpg");
    expect(sortChosenPhotos([notes, huge, front], limits)).toEqual({
      accepted: [front],
      refused: ["notes.txt is not a photo.", "huge.jpg is over 15 MB."],
    });
  });

  it("lets a file with no type through, for the server to judge by its content", () => {
    const untyped = new File([new Uint8Array(10)], "IMG_0001.HEIC");
    expect(sortChosenPhotos([untyped], limits).accepted).toEqual([untyped]);
  });

  it("stops at the room the car has left", () => {
    const files = [jpeg("one.jpg"), jpeg("two.jpg"), jpeg("three.jpg")];
    expect(sortChosenPhotos(files, { ...limits, room: 2 })).toEqual({
      accepted: files.slice(0, 2),
      refused: ["three.jpg was not added: a car can have at most 20 photos."],
    });
  });

  it("takes nothing when there is nothing chosen", () => {
    expect(sortChosenPhotos([], limits)).toEqual({ accepted: [], refused: [] });
  });
});

describe("choiceNotice", () => {
  it("counts what was queued and gives each reason for what was not", () => {
    expect(choiceNotice({ accepted: [jpeg("a.jpg")], refused: [] })).toBe("1 photo queued.");
    expect(choiceNotice({ accepted: [jpeg("a.jpg"), jpeg("b.jpg")], refused: ["c.txt is not a photo."] })).toBe(
      "2 photos queued. c.txt is not a photo.",
    );
    expect(choiceNotice({ accepted: [], refused: ["c.txt is not a photo."] })).toBe("c.txt is not a photo.");
  });

  it("says nothing when nothing was chosen", () => {
    expect(choiceNotice({ accepted: [], refused: [] })).toBe("");
  });
});

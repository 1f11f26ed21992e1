// The bundle's CommonJS files as ASCII (scripts/build.js).
import { readFileSync, writeFileSync } from "node:fs";

// esbuild escapes every character outside ASCII in code, but keeps the comments of the packages it takes in as
// they are, and a few of them hold such characters (quotes, arrows). A file that is ASCII throughout decodes at
// once into a string of one byte per character, where one character outside ASCII makes the whole 3 MB of the
// command's file a string of two bytes per character, decoded slowly on every start. So each is written as an
// escape: in a comment it is text, in a string it means the same character. That the code is unchanged is shown,
// not assumed: minified without comments, the file says the same before and after; else it is left as it was.
// Answers whether the file is ASCII now.
export async function asciiOnly(esbuild, file) {
  const text = readFileSync(file, "utf8");
  if (!/[^\x00-\x7f]/u.test(text)) return true;
  const ascii = text.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  const bare = { minify: true, legalComments: "none", loader: "js" };
  const [before, after] = await Promise.all([esbuild.transform(text, bare), esbuild.transform(ascii, bare)]);
  if (before.code !== after.code) return false;
  writeFileSync(file, ascii);
  return true;
}

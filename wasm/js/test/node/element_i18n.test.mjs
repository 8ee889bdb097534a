// The element's words (element/i18n.js): the same keys and placeholders in English,
// Simplified Chinese and Brazilian Portuguese, the playground's terms word for word
// (web/src/i18n.rs), and the language picked as the playground picks it.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { STRINGS, LANGS, SHARED, langFromTag, t } from "../../element/i18n.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const playground = fs.readFileSync(path.resolve(here, "../../../../web/src/i18n.rs"), "utf8");
const placeholders = (s) => [...s.matchAll(/\{\d\}/g)].map((m) => m[0]).sort().join();

test("every language has every key, with the same placeholders", () => {
  assert.deepEqual(Object.keys(STRINGS), LANGS);
  const keys = Object.keys(STRINGS.en);
  assert.ok(keys.length > 60);
  for (const lang of LANGS) {
    assert.deepEqual(Object.keys(STRINGS[lang]).sort(), [...keys].sort(), lang);
    for (const k of keys) {
      assert.ok(STRINGS[lang][k].length > 0, `${lang} ${k}`);
      assert.equal(placeholders(STRINGS[lang][k]), placeholders(STRINGS.en[k]), `${lang} ${k}`);
    }
  }
});

test("the translations are translations: most strings differ from English", () => {
  for (const lang of ["zh-CN", "pt-BR"]) {
    const same = Object.keys(STRINGS.en).filter((k) => STRINGS[lang][k] === STRINGS.en[k]);
    assert.ok(same.length < 8, `${lang}: ${same.join(", ")}`);
  }
  assert.match(STRINGS["zh-CN"].pending, /[\u4e00-\u9fff]/);
});

test("terms shared with the playground are its words exactly (web/src/i18n.rs)", () => {
  for (const [mine, theirs] of Object.entries(SHARED)) {
    const line = playground.split("\n").find((l) => l.trim().startsWith(`${theirs} =>`));
    assert.ok(line, `playground key ${theirs}`);
    const texts = [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    assert.equal(texts.length, 3, line);
    LANGS.forEach((lang, i) => assert.equal(STRINGS[lang][mine], texts[i], `${mine} (${lang}) = ${theirs}`));
  }
});

test("the language from a tag, as the playground picks it", () => {
  assert.equal(langFromTag("zh"), "zh-CN");
  assert.equal(langFromTag("zh-Hans-CN"), "zh-CN");
  assert.equal(langFromTag("ZH_tw"), "zh-CN");
  assert.equal(langFromTag("pt"), "pt-BR");
  assert.equal(langFromTag("pt-PT"), "pt-BR");
  assert.equal(langFromTag("en-GB"), "en");
  assert.equal(langFromTag("de"), "en");
  assert.equal(langFromTag(""), "en");
  assert.equal(langFromTag(undefined), "en");
});

test("placeholders are filled; a missing language falls back to English", () => {
  assert.equal(t("en", "pending", "web"), "web stays Pending");
  assert.equal(t("zh-CN", "pending", "web"), "web 保持 Pending");
  assert.equal(t("pt-BR", "pending", "web"), "web fica Pending");
  assert.equal(t("fr", "pending", "web"), "web stays Pending");
});

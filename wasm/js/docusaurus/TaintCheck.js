// <TaintCheck yaml="…" version="1.30" />: a <taint-check> widget in a Docusaurus (React)
// page; the remark plugin writes <TaintCheck fence="yaml taint-check …" yaml="…" /> for a
// code fence. Every other prop is an element attribute. On the server it renders the
// element with its YAML in a <pre><code>, which the page shows as a code block until the
// element runs; in the browser it loads the element once
// (a dynamic import: the wasm never loads during the static build), and every widget a
// client-side navigation mounts renders by itself. The widget takes the page's locale as
// its language unless `lang` is given.
import React, { useEffect } from "react";
import useDocusaurusContext from "@docusaurus/useDocusaurusContext";

let element = null;
/** Loads the element once per page. */
export function loadElement() {
  element ??= import("taintlab/element");
  return element;
}

export default function TaintCheck({ yaml, children, ...attrs }) {
  const { i18n } = useDocusaurusContext();
  useEffect(() => {
    loadElement().catch((e) => console.error("taintlab: the <taint-check> element could not be loaded", e));
  }, []);
  // The page's locale, unless the prop or the fence's options set a language.
  const fenceLang = /(^|[\s,{])lang=/.test(attrs.fence ?? "");
  const props = { ...(fenceLang ? {} : { lang: i18n?.currentLocale }), ...attrs };
  for (const [k, v] of Object.entries(props)) {
    if (v === false || v == null) delete props[k];
    else if (v === true) props[k] = "";
  }
  const text = yaml ?? (typeof children === "string" ? children : undefined);
  return React.createElement(
    "taint-check",
    props,
    text ? React.createElement("pre", { className: "taint-check-yaml" }, React.createElement("code", { className: "language-yaml" }, text)) : null,
  );
}

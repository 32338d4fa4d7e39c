// feltwire pages' DOM vocabulary: make an element with its class and text, find a
// [data-field] inside a box. Every page builds its markup with these.

/** A new element `<tag class=cls>text</tag>` (no class and no text when not given). */
export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The element of `root` marked data-field="name" (a seat panel's name, stack, bet …). */
export function field(root, name) {
  return root.querySelector('[data-field="' + name + '"]');
}

// @ts-check
// Building the table's DOM: elements with a class and a text, and the few icons, drawn as inline
// SVG (an emoji shows as an empty box on a browser without an emoji font).

/**
 * @param {string} tag
 * @param {string} [className]
 * @param {string | number | null} [text]
 * @returns {HTMLElement}
 */
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

const SVG = "http://www.w3.org/2000/svg";

// 24×24 outlines, stroked in the current text colour.
const ICONS = {
  sound: "M4 9h4l5-4v14l-5-4H4z M16 9a4 4 0 0 1 0 6 M18.5 6.5a7.5 7.5 0 0 1 0 11",
  colours: "M6 3h12v18H6z M12 8l2.5 4-2.5 4-2.5-4z",
  lock: "M6 11h12v10H6z M8.5 11V8a3.5 3.5 0 0 1 7 0v3",
  friends:
    "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7z M2.5 20a6.5 6.5 0 0 1 13 0 M16 4.3a3.5 3.5 0 0 1 0 6.4 M18 14a6.5 6.5 0 0 1 3.5 6",
  coin: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z M12 7a5 5 0 1 0 0 10 5 5 0 0 0 0-10z",
  trick: "M4 8h10v13H4z M9 8V3h10v13h-5",
  sheet: "M4 4h16v16H4z M4 9.5h16 M4 15h16 M9.5 4v16",
  more: "M3.5 12a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0z M10.5 12a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0z M17.5 12a1.5 1.5 0 1 0 3 0 1.5 1.5 0 1 0-3 0z",
};

/**
 * An inline SVG icon; decorative (the label is the text beside it) unless `label` is given.
 * @param {keyof typeof ICONS} name
 * @param {{label?: string, className?: string}} [options]
 * @returns {SVGSVGElement}
 */
export function icon(name, { label = "", className = "" } = {}) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "1em");
  svg.setAttribute("height", "1em");
  svg.setAttribute("fill", "none");
  svg.setAttribute("stroke", "currentColor");
  svg.setAttribute("stroke-width", "2");
  svg.setAttribute("stroke-linecap", "round");
  svg.setAttribute("stroke-linejoin", "round");
  svg.setAttribute("class", `icon icon-${name}${className ? ` ${className}` : ""}`);
  if (label) {
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    const title = document.createElementNS(SVG, "title");
    title.textContent = label;
    svg.append(title);
  } else {
    svg.setAttribute("aria-hidden", "true");
  }
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

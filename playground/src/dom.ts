/** A small element builder: `h("label", { for: "x" }, "Column")`. Strings become text nodes (never HTML). */
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;
type Child = Node | string | false | null | undefined;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(name.replace(/^on/, ""), value);
    else if (name === "value" && "value" in el) (el as HTMLInputElement).value = String(value);
    else if (name === "checked" || name === "selected") (el as unknown as Record<string, boolean>)[name] = value === true;
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === false || child === null || child === undefined) continue;
    el.append(child);
  }
  return el;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`playground: no element #${id}`);
  return el as T;
}

/** Replace an element's children, keeping keyboard focus on the control with the same id. */
export function replaceChildren(parent: HTMLElement, ...children: (Node | string)[]): void {
  const active = document.activeElement?.id;
  parent.replaceChildren(...children);
  if (active) document.getElementById(active)?.focus();
}

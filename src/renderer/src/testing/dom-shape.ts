/** An element's tree as text: tags, attributes in name order, text. Attribute order is not shown. */
export function domShape(node: Node): string {
  if (!(node instanceof Element)) return JSON.stringify(node.textContent)
  const attrs = node
    .getAttributeNames()
    .sort()
    .map((n) => `${n}=${JSON.stringify(node.getAttribute(n))}`)
  return `<${node.tagName.toLowerCase()} ${attrs.join(' ')}>${[...node.childNodes].map(domShape).join('')}</>`
}

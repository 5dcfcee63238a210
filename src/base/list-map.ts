/** Maps of lists, grown in place: appending never copies a list, so building one stays linear. */

/** Appends `value` to the list of `key` in `map`, starting the list when there is none. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

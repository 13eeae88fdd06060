/**
 * `{ ...base, ...fields }`, made so that V8 keeps one hidden class for every object made alike (issue 16).
 *
 * On Node 20 (V8 11.3) an object literal that begins with a spread and then adds a property the spread did not
 * copy (`{ ...key, name }`) gets a hidden class of its own, every time: the spread's copy of the source's class is
 * not linked to the classes that follow from it. Every read of such objects then misses V8's inline caches, and
 * the one-use classes crowd out the cache entries of every other object. Object.assign into a new object adds
 * each property as a plain store, which reuses the classes made the first time. A literal that only overrides
 * what the spread copied (`{ ...obj, metadata }`), or that names properties before its spreads, is not affected.
 *
 * @example extend(typeOf(kind), { namespace, name }) // { group, resource, namespace, name }
 */
export function extend<T extends object, U extends object>(base: T, fields: U): T & U {
  return Object.assign({}, base, fields);
}

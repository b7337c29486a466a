// Loads a bundle a view needs only after its first paint (esbuild.mjs LAZY_WEBVIEW_BUNDLES): a
// classic script, under the page's nonce, that leaves its exports on a global. The page names
// each bundle's URL in a meta tag (src/extension/pageHtml.ts `lazyBundles`).
export function lazyBundleUrl(name: string): string | undefined {
  return document.querySelector<HTMLMetaElement>(`meta[name="trajaudit-bundle-${name}"]`)?.content || undefined;
}

export function loadLazyBundle<T>(name: string, globalName: string): Promise<T> {
  const loaded = (window as unknown as Record<string, T | undefined>)[globalName];
  if (loaded) return Promise.resolve(loaded);
  const url = lazyBundleUrl(name);
  if (!url) return Promise.reject(new Error(`the page names no URL for the ${name} bundle`));
  return new Promise<T>((resolve, reject) => {
    const script = document.createElement('script');
    script.nonce = document.querySelector<HTMLMetaElement>('meta[name="trajaudit-nonce"]')?.content ?? '';
    script.src = url;
    script.onload = () => {
      const exports = (window as unknown as Record<string, T | undefined>)[globalName];
      if (exports) resolve(exports);
      else reject(new Error(`${url} loaded but did not define ${globalName}`));
    };
    script.onerror = () => reject(new Error(`${url} could not be loaded`));
    document.head.append(script);
  });
}

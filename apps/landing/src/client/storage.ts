/** Storage that never throws (private modes, disabled storage): failures read as empty. */
export function get(store: 'local' | 'session', key: string): string | null {
  try {
    return (store === 'local' ? localStorage : sessionStorage).getItem(key);
  } catch {
    return null;
  }
}

export function set(store: 'local' | 'session', key: string, value: string): void {
  try {
    (store === 'local' ? localStorage : sessionStorage).setItem(key, value);
  } catch {
    /* storage unavailable: the popup just shows again next time */
  }
}

export function remove(store: 'local' | 'session', key: string): void {
  try {
    (store === 'local' ? localStorage : sessionStorage).removeItem(key);
  } catch {
    /* ignore */
  }
}

/** One office screen: drawn into #app, with the events of its own controls (main.ts delegates them). */
export interface OfficePage {
  show(app: HTMLElement, msg?: string): Promise<void>;
  click?(button: HTMLButtonElement, app: HTMLElement): Promise<void>;
  change?(el: HTMLInputElement | HTMLSelectElement, app: HTMLElement): Promise<void>;
  input?(el: HTMLInputElement | HTMLSelectElement, app: HTMLElement): void;
  submit?(form: HTMLFormElement, app: HTMLElement): Promise<void>;
}

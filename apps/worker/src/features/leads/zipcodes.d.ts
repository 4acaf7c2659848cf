/** Types of the `zipcodes` package (it ships none): the part the lead mapping uses. */
declare module 'zipcodes' {
  export interface ZipPlace {
    zip: string;
    latitude: number;
    longitude: number;
    city: string;
    /** US: the two-letter state code; Canada: the province name. */
    state: string;
    /** 'US' or 'Canada'. */
    country: string;
  }
  export function lookup(zip: string | number): ZipPlace | undefined;
  const zipcodes: { lookup: typeof lookup };
  export default zipcodes;
}

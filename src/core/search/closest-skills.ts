/** More skills than this, and a name that is not found gets the closest few, not the whole list. */
export const MAX_LISTED_SKILLS = 50;

/** How many of the closest skills a name that is not found gets. */
export const CLOSEST_SKILLS = 3;

/** The search query for the skills closest to a name that is not found: the words of the name. */
export function nameQuery(name: string): string {
  return name.replace(/[-_]/g, " ");
}

/** Safety and convergence over random custom scenarios, part 4 of 4 (see custom.ts). */
import { propertyPart } from './custom.ts';

propertyPart(4);

// Counter's Hindi: the one dictionary of the language, typed against English (Words), so a key missing here, or
// added to English alone, fails the type-check in whichever part it is.
import type { Words } from '../en'
import { paperHi } from './paper'
import { saidHi } from './said'
import { screenHi } from './screen'

export const hi: Words = { screen: screenHi, said: saidHi, paper: paperHi }

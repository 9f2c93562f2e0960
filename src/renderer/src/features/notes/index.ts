/**
 * Notes on transactions and addresses: the store and the note field.
 * Other features and pages import this feature only through this file.
 */
export { default as NoteField } from './NoteField.vue'
export { useNotesStore, noteKey } from './notes-store'

// Shared with ptyctl (its --follow --grep searches each poll with the previous text's tail).
export { SearchableText, type TextMatch } from '@pty-ws/protocol';

/** Largest message a real-time client may send, on Socket.IO and the plain-WebSocket feed. */
export const MAX_SOCKET_PAYLOAD_BYTES = 16 * 1024;

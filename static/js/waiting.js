// The waiting room of an open table: follows seats live and moves to the match when it starts.
import { connect, handlePlayerEvents } from "./live.js";

const root = document.getElementById("table-root");
const tableId = Number(root.dataset.tableId);
const notifications = document.getElementById("notifications");

connect("/ws/lobby/", {
  onMessage(message) {
    if (handlePlayerEvents(message, notifications)) return;
    const about = message.type === "table" ? message.table.id : message.id;
    if ((message.type === "table" || message.type === "table_removed") && about === tableId) {
      // The server page is the truth for seats, buttons and notices: fetch it again.
      window.location.reload();
    }
  },
});

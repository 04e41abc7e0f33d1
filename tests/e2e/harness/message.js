// Draws window.MESSAGE ({author, components, embeds, files: {name: url}}) as Discord lays out a
// Components V2 message or an embed; each element carries what a test reads back (alt text,
// custom ids, the commands a mention links to).
"use strict";

function escape(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function relative(unix) {
  const minutes = Math.round((unix * 1000 - Date.now()) / 60000);
  if (Math.abs(minutes) < 1) return "now";
  return minutes > 0 ? `in ${minutes} minutes` : `${-minutes} minutes ago`;
}

function inline(text) {
  return escape(text)
    .replace(/&lt;t:(\d+):R&gt;/g, (_, unix) => `<span class="time">${relative(Number(unix))}</span>`)
    .replace(/&lt;\/([\w -]+):(\d+)&gt;/g,
      (_, name, id) => `<span class="command" data-command="${name}" data-id="${id}">/${name}</span>`)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\\([\\*_~`|>])/g, "$1");
}

function markdown(content) {
  return content.split("\n").map((line) => {
    if (line.startsWith("## ")) return `<h2>${inline(line.slice(3))}</h2>`;
    if (line.startsWith("### ")) return `<h3>${inline(line.slice(4))}</h3>`;
    if (line.startsWith("-# ")) return `<small>${inline(line.slice(3))}</small>`;
    return `<p>${inline(line)}</p>`;
  }).join("");
}

function draw(component, files) {
  const el = document.createElement("div");
  switch (component.type) {
    case 17:
      el.className = "container";
      if (component.accent_color != null) {
        el.style.setProperty("--accent", `#${component.accent_color.toString(16).padStart(6, "0")}`);
      }
      for (const child of component.components) el.append(draw(child, files));
      break;
    case 10:
      el.className = "text";
      el.innerHTML = markdown(component.content);
      break;
    case 12:
      el.className = "gallery";
      for (const item of component.items) {
        const img = document.createElement("img");
        img.src = files[item.media.url.replace("attachment://", "")] || item.media.url;
        img.alt = item.description || "";
        el.append(img);
      }
      break;
    case 1:
      el.className = "row";
      for (const child of component.components) el.append(draw(child, files));
      break;
    case 2: {
      const button = document.createElement("button");
      button.className = `button style-${component.style}`;
      // The test machine has no emoji font: a button's emoji is left out rather than drawn as a box.
      button.textContent = component.label || "";
      button.dataset.customId = component.custom_id || "";
      return button;
    }
    case 3:
      el.className = "select";
      el.textContent = component.placeholder || "";
      el.dataset.customId = component.custom_id;
      break;
    default:
      el.textContent = `(component of type ${component.type})`;
  }
  return el;
}

function drawEmbed(embed) {
  const el = document.createElement("div");
  el.className = "embed";
  if (embed.color != null) el.style.setProperty("--accent", `#${embed.color.toString(16).padStart(6, "0")}`);
  const parts = [];
  if (embed.title) parts.push(`<div class="title">${inline(embed.title)}</div>`);
  if (embed.description) parts.push(`<div class="text">${markdown(embed.description)}</div>`);
  for (const field of embed.fields || []) {
    parts.push(`<div class="field"><div class="field-name">${inline(field.name)}</div>`
      + `<div class="text">${markdown(field.value)}</div></div>`);
  }
  el.innerHTML = parts.join("");
  return el;
}

function show(message) {
  const chat = document.getElementById("chat");
  chat.innerHTML = `<div class="author">HF</div><div><span class="name">${escape(message.author)}</span>`
    + `<span class="tag">APP</span></div>`;
  for (const component of message.components || []) chat.append(draw(component, message.files));
  for (const embed of message.embeds || []) chat.append(drawEmbed(embed));
}

window.show = show;

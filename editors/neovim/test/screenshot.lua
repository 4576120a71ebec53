-- Neovim set-up for the documentation screenshot (editors/vscode/scripts/screenshot.sh):
-- opens $DGNKIT_SHOT_FILE with dgnkit.lua and the real dgn-lsp, waits for
-- the diagnostics, then opens the hover of the first line matching
-- $DGNKIT_SHOT_HOVER_LINE, on the text $DGNKIT_SHOT_HOVER_AT.

local script = debug.getinfo(1, 'S').source:sub(2)
local editors = vim.fn.fnamemodify(script, ':p:h:h:h')

vim.o.termguicolors = true
vim.o.background = 'dark'
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.ruler = false
vim.o.showmode = false
vim.o.laststatus = 0
vim.opt.shortmess:append('I')
vim.cmd('highlight Normal guibg=#1e1e1e guifg=#d4d4d4')
vim.cmd('highlight LineNr guifg=#858585 guibg=#1e1e1e')
vim.cmd('highlight SignColumn guibg=#1e1e1e')
vim.cmd('highlight NormalFloat guibg=#252526 guifg=#cccccc')
vim.cmd('highlight FloatBorder guibg=#252526 guifg=#454545')

vim.diagnostic.config({ virtual_text = { spacing = 2 }, underline = true, signs = true, severity_sort = true })

local published = 0
local default_handler = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(e, result, ctx, cfg)
  published = published + 1
  return default_handler(e, result, ctx, cfg)
end
vim.lsp.handlers['textDocument/hover'] = vim.lsp.with(vim.lsp.handlers.hover, { border = 'single', max_width = 70 })

dofile(editors .. '/neovim/dgnkit.lua').setup({
  cmd = { vim.env.DGN_LSP },
  settings = { target = vim.env.DGNKIT_SHOT_TARGET or 'nethack-3.6' },
})

vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.DGNKIT_SHOT_FILE))
vim.wait(20000, function()
  return published > 0
end, 50)

local pattern = vim.env.DGNKIT_SHOT_HOVER_LINE
local at = vim.env.DGNKIT_SHOT_HOVER_AT
for i, line in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
  if line:find(pattern) then
    local col = line:find(at, 1, true)
    vim.api.nvim_win_set_cursor(0, { i, col or 0 })
    -- A few lines of context above, the rest of the window for the hover.
    vim.fn.winrestview({ topline = math.max(1, i - 5) })
    break
  end
end
vim.defer_fn(function()
  vim.lsp.buf.hover()
end, 300)

require "paperclip"
